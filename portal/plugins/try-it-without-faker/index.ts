// Leaves faker (@faker-js/faker 5 with its English data, most of the try-it's 1.4 MB script) out of the browser build.
// postman-collection, which the theme's try-it builds its requests with, requires it for Postman's {{$random...}}
// dynamic variables, which only a variable substitution uses; the theme never substitutes variables (it sends the form
// as filled in), so faker was loaded and evaluated on every operation page whose try-it came into view, unused.
// ./faker-stub.js answers for it: any generator that is ever called throws an error that says why.
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

export default function tryItWithoutFaker(): Plugin {
  return {
    name: 'try-it-without-faker',
    configureWebpack(_config, isServer) {
      if (isServer) return {};
      return {resolve: {alias: {'@faker-js/faker/locale/en$': path.join(__dirname, 'faker-stub.js')}}};
    },
  };
}
