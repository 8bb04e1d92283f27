// The contract's own request samples (x-codeSamples: curl, JavaScript fetch, PHP, Python), addressed to the origin
// that serves this page. Replaces the theme's generated snippets: their generators (postman-code-generators, a 5 MB
// chunk) would load on every operation page.
import type {ReactNode} from 'react';
import CodeBlock from '@theme/CodeBlock';
import TabItem from '@theme/TabItem';
import Tabs from '@theme/Tabs';

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** The origin the contract's samples address: the default of its `servers` variable (contract/src/code-samples.ts). */
const contractOrigin = 'http://127.0.0.1:8080';

// The theme renders the explorer in the browser only, so window is always there.
export default function CodeSnippets({codeSamples}: {codeSamples: CodeSample[]}): ReactNode {
  if (!codeSamples.length) return null;
  return (
    <Tabs groupId="code-samples" className="portal-code-samples" lazy>
      {codeSamples.map((sample) => (
        <TabItem key={sample.label} value={sample.lang} label={sample.label}>
          <CodeBlock language={sample.lang}>{sample.source.replaceAll(contractOrigin, window.location.origin)}</CodeBlock>
        </TabItem>
      ))}
    </Tabs>
  );
}
