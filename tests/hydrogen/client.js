// Hydrogen, the Matrix web client, mounted whole as its own page mounts it, for the suites that
// play Muster from a client people use (tests/tests/matrix_client.rs). scripts/prepare bundles
// this file with hydrogen-view-sdk and libolm (esbuild), beside the assets Hydrogen loads itself:
// its worker, its download sandbox, its service worker (which serves authenticated media) and
// olm's WebAssembly. config.json, written by the suite, names the homeserver.
import {
    FeatureSet,
    Platform,
    RootViewModel,
    createNavigation,
    createRouter,
} from "hydrogen-view-sdk";

const assetPaths = {
    downloadSandbox: "assets/download-sandbox.html",
    worker: "assets/main.js",
    serviceWorker: "sw.js",
    olm: {
        wasm: "olm/olm.wasm",
        legacyBundle: "olm/olm_legacy.js",
        wasmBundle: "olm/olm.js",
    },
};

async function main() {
    const container = document.querySelector("#app");
    const platform = new Platform({
        container,
        assetPaths,
        configURL: "config.json",
        options: { development: false },
    });
    await platform.init();
    const features = await FeatureSet.load(platform.settingsStorage);
    const navigation = createNavigation();
    platform.setNavigation(navigation);
    const urlRouter = createRouter({ navigation, history: platform.history });
    urlRouter.attach();
    const vm = new RootViewModel({ platform, navigation, urlRouter, features });
    await vm.load();
    platform.createAndMountRootView(vm);
    window.hydrogenReady = true;
}

main().catch((e) => {
    window.hydrogenError = String(e && e.stack || e);
    console.error(e);
});
