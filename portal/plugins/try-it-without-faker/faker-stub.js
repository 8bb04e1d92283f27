// Stands in for @faker-js/faker/locale/en in the browser build (./index.ts says why). postman-collection reads
// faker.<group>.<generator> as it loads; calling any of them throws.
const unsupported = () => {
  throw new Error("Postman's {{$random...}} dynamic variables are not supported by this page's try-it.");
};
const group = new Proxy({}, {get: () => unsupported});
module.exports = new Proxy({}, {get: () => group});
