// Stands in for pako in the browser build of the theme's operation page (./index.ts says why).
exports.ungzip = () => {
  throw new Error('Operation pages carry their operation uncompressed (disableCompression): there is nothing to inflate.');
};
