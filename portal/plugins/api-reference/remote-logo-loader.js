// Webpack loader for Redoc's bundles: Redoc shows a logo it loads from cdn.redoc.ly under its
// attribution link. The portal must not make any request off this machine, so the image source
// is emptied; Redoc's own error handler then removes the image and keeps the text link.
const remoteLogo = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini\.svg/g;

module.exports = function removeRemoteLogo(source) {
  return source.replace(remoteLogo, '');
};
