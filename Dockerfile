# syntax=docker/dockerfile:1
#
# Muster in a container (docs/deploy.md):
#   docker build -t muster .
#   docker run -d --name muster -v muster-data:/data -e MUSTER_DISCORD_TOKEN=… \
#     -e MUSTER_DISCORD_APPLICATION_ID=… -p 127.0.0.1:9100:9100 muster

# matrix-sdk 0.18 needs Rust 1.93 or newer.
ARG RUST_VERSION=1.95

FROM rust:${RUST_VERSION}-slim-bookworm AS builder
# The slim image has gcc and libc6-dev, all that the C parts need (SQLite bundled by
# matrix-sdk, ring, aws-lc); TLS is rustls, so there is no OpenSSL to link.
WORKDIR /src
COPY . .
# Downloaded crates and the target directory are kept in BuildKit caches between builds; the
# binary is copied out of the cache before the step ends.
RUN --mount=type=cache,target=/usr/local/cargo/registry,sharing=locked \
    --mount=type=cache,target=/usr/local/cargo/git,sharing=locked \
    --mount=type=cache,target=/src/target,sharing=locked \
    cargo build --release --locked -p muster --bin muster \
    && install -m 0755 target/release/muster /usr/local/bin/muster

FROM debian:bookworm-slim
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="Muster" \
      org.opencontainers.image.description="Muster, a chat bot for Lewis Carroll's games (Lanrick, Arithmetical Croquet, Lanko) on Discord and Matrix" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.authors="The Muster developers" \
      org.opencontainers.image.licenses="MIT OR Apache-2.0"

# The Matrix client checks certificates against the system's roots; the board font and the
# time-zone database are compiled into the binary.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/*

RUN groupadd --system --gid 10001 muster \
    && useradd --system --uid 10001 --gid muster --home-dir /data --no-create-home \
       --shell /usr/sbin/nologin muster \
    && mkdir /data \
    && chown muster:muster /data \
    && chmod 0700 /data

COPY --from=builder /usr/local/bin/muster /usr/local/bin/muster

# Settings: muster.toml in /data (or the file MUSTER_CONFIG names) and MUSTER_* variables.
# The operations listener is on, for the health check; publish it on a private address only.
# Discord's HTTP interactions endpoint (mode "http") listens on 8080 when that mode is chosen.
ENV MUSTER_DATA_DIR=/data \
    MUSTER_OPS_LISTEN=0.0.0.0:9100 \
    MUSTER_DISCORD_LISTEN=0.0.0.0:8080

USER muster:muster
WORKDIR /data
VOLUME ["/data"]
EXPOSE 9100 8080

# Muster stops cleanly on SIGTERM within 10 s; `docker stop` waits 10 s by default, so give it
# `--stop-timeout 15` (or `stop_grace_period: 15s` in Compose).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["muster", "health"]

ENTRYPOINT ["muster"]
CMD ["serve"]
