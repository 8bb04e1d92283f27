// Colour mode as the specification gives it: a stored choice wins, else the system's light or dark, else dark.
// Docusaurus (colorMode.respectPrefersColorScheme) applies the stored choice, else takes dark when the system prefers dark
// and light in every other case. The script here runs right after the theme's own, before the first paint, and takes
// light only when the system says light: a browser that answers neither (no prefers-color-scheme) starts dark, as does
// a page read without scripts (ssr-template.html renders <html data-theme="dark">).
import type {Plugin} from '@docusaurus/types';

const systemSaysNothing = `(function(){var d=document.documentElement;try{if(d.getAttribute('data-theme-choice')==='system'&&!matchMedia('(prefers-color-scheme: light)').matches)d.setAttribute('data-theme','dark')}catch(e){}})();`;

export default function colourMode(): Plugin {
  return {
    name: 'colour-mode',
    // Site plugins inject after the classic theme (presets come first), so this runs after its colour-mode script.
    injectHtmlTags: () => ({preBodyTags: [{tagName: 'script', innerHTML: systemSaysNothing}]}),
  };
}
