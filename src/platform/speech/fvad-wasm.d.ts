// @echogarden/fvad-wasm ships no types: an Emscripten module factory.
declare module '@echogarden/fvad-wasm' {
  const createFvad: () => Promise<unknown>
  export default createFvad
}
