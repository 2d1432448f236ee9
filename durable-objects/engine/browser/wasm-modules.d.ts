/** The QuickJS wasm binary, imported as a compiled module (wrangler CompiledWasm rule). */
declare module "@jitl/quickjs-wasmfile-release-sync/wasm" {
  const wasm: WebAssembly.Module;
  export default wasm;
}
