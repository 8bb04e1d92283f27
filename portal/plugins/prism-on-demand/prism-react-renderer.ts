// prism-react-renderer as the site's code blocks get it (see ./index.ts): its Prism with the site's extra languages.
import {Prism} from 'prism-react-renderer';
import prismIncludeLanguages from '@theme/prism-include-languages';

prismIncludeLanguages(Prism);

export * from 'prism-react-renderer';
