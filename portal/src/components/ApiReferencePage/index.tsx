import type {ReactNode} from 'react';
import Layout from '@theme/Layout';
import Redoc from '@theme/Redoc';
import TryIt, {type OpenApiPaths} from '@site/src/components/TryIt';
import type {ApiReferencePageProps} from '@site/plugins/api-reference';

interface Props extends ApiReferencePageProps {
  specProps: {spec: {paths: OpenApiPaths}; url: string};
}

// Redoc keeps its three panels wide; the expanded samples make the operations easy to scan.
const redocOptions = {jsonSampleExpandLevel: 3, expandResponses: '200,201', pathInMiddlePanel: true};

export default function ApiReferencePage({title, description, specProps}: Props): ReactNode {
  return (
    <Layout title={title} description={description}>
      <main>
        <TryIt paths={specProps.spec.paths} />
        <Redoc spec={specProps.spec} url={specProps.url} optionsOverrides={redocOptions} />
      </main>
    </Layout>
  );
}
