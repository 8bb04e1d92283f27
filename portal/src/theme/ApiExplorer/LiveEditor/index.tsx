// The try-it's body editor, without running the body. The theme's editor sits in react-live's LiveProvider, which
// evaluates what is typed as JavaScript (new Function) to preview it; the portal's Content-Security-Policy has no
// 'unsafe-eval', and a request body needs no preview. An empty required body is left to the API to refuse (400).
import {useEffect, useState, type ReactNode} from 'react';
import {usePrismTheme} from '@docusaurus/theme-common';
import {Editor} from 'react-live';

interface Props {
  children: string;
  language: string;
  /** Receives the body on every change (the theme keeps it for the request). */
  action: (code: string) => void;
}

export default function BodyEditor({children, language, action}: Props): ReactNode {
  const theme = usePrismTheme();
  const [code, setCode] = useState(children.replace(/\n$/, ''));
  useEffect(() => {
    action(code);
  }, [code]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className="openapi-explorer__playground-container">
      <Editor className="openapi-explorer__playground-editor" code={code} language={language} theme={theme} tabMode="focus" onChange={setCode} />
    </div>
  );
}
