export default defineBackground(() => {
  // Wiring arrives with the extension issue; the engine lives in lib/.
});
