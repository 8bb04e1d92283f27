import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import styles from './index.module.css';

const paths = [
  {title: 'Get started', to: '/docs/get-started/', text: 'From a first token to a go-live checklist in four steps.'},
  {title: 'ShopApi v3 reference', to: '/specs/v3/', text: 'Every operation with examples and code samples in four languages.'},
  {title: 'Run the sandbox', to: '/docs/index-banner-1', text: 'The whole API on your own machine, with a warehouse you control.'},
];

export default function Home(): ReactNode {
  return (
    <Layout description="Developer portal of the Shop API: guides, concepts and API references for connecting a webshop to the fulfilment centre.">
      <header className={styles.hero}>
        <div className="container">
          <Heading as="h1">Shop API</Heading>
          <p className={styles.tagline}>Connect your webshop to our fulfilment centre: send orders, sync products, track every shipment.</p>
          <div className={styles.actions}>
            <Link className="button button--primary button--lg" to="/docs/get-started/">
              Get started
            </Link>
            <Link className="button button--secondary button--lg" to="/docs">
              Read the documentation
            </Link>
          </div>
        </div>
      </header>
      <main className="container margin-vert--lg">
        <div className="row">
          {paths.map((path) => (
            <div key={path.to} className="col col--4 margin-bottom--lg">
              <Link className={styles.card} to={path.to}>
                <Heading as="h2">{path.title}</Heading>
                <p>{path.text}</p>
              </Link>
            </div>
          ))}
        </div>
      </main>
    </Layout>
  );
}
