//! The `muster` binary: see `muster help`.

use std::process::ExitCode;

/// The allocator: jemalloc, with its background threads giving freed memory back to the
/// system while Muster is idle. With the system's (glibc's), a load of the web pages — boards
/// drawn on several threads at once — left tens of megabytes held by its arenas for good
/// (docs/performance.md, "Memory of the web pages").
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = muster::cli::run(
        &args,
        &mut std::io::stdin(),
        &mut std::io::stdout(),
        &mut std::io::stderr(),
    );
    ExitCode::from(code)
}
