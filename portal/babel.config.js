// The OpenAPI theme and plugin ship CommonJS that webpack must not treat as ES modules: without
// sourceType 'unambiguous' the build fails ("Cannot get final name for export '__esModule'") or
// every operation page crashes ("exports is not defined").
module.exports = {
  presets: [require.resolve('@docusaurus/babel/preset')],
  overrides: [{test: /node_modules[\\/]docusaurus-(theme|plugin)-openapi-docs[\\/]/, sourceType: 'unambiguous'}],
};
