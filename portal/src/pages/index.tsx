import type {ReactNode} from 'react';
import Link from '@docusaurus/Link';
import useIsBrowser from '@docusaurus/useIsBrowser';
import CodeBlock from '@theme/CodeBlock';
import Heading from '@theme/Heading';
import Layout from '@theme/Layout';
import TaskCards, {icons} from '@site/src/components/TaskCards';
import styles from './index.module.css';

const tasks = [
  {title: 'Get started', to: '/docs/get-started/', text: 'From a first token to a go-live checklist in four steps.', icon: icons.start},
  {title: 'Send an order', to: '/specs/v3/create-order', text: 'Create an order from the reference page and see the answer.', icon: icons.order},
  {title: 'Browse the v3 reference', to: '/specs/v3/', text: 'Every operation with examples, code samples and a try-it.', icon: icons.reference},
  {title: 'Run the sandbox', to: '/docs/sandbox', text: 'The whole API on your own machine, with a warehouse you control.', icon: icons.sandbox},
  {title: 'Receive webhooks', to: '/specs/v3/webhooks', text: 'Shipment and inbound events, signed, retried for a day.', icon: icons.webhook},
  {title: 'Move from v2 to v3', to: '/docs/index-banner-2', text: 'What changes for a v2 integration, call by call.', icon: icons.migrate},
];

/** The first call of an integration against the sandbox that serves this page (npm start prints the password). */
function firstCall(origin: string): string {
  return [
    `TOKEN=$(curl -s -X POST ${origin}/token \\`,
    `  -d grant_type=password -d username=demo -d "password=$PASSWORD" \\`,
    `  | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')`,
    `curl -s ${origin}/v3/products \\`,
    `  -H "Authorization: Bearer $TOKEN" -H 'Accept: application/vnd.api+json'`,
  ].join('\n');
}

export default function Home(): ReactNode {
  // The server render cannot know where the sandbox runs; the browser replaces the default origin with its own.
  const origin = useIsBrowser() ? window.location.origin : 'http://127.0.0.1:8080';
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
            <Link className="button button--secondary button--lg" to="/specs/v3/">
              Open the API reference
            </Link>
          </div>
        </div>
      </header>
      <main className="container margin-vert--lg">
        <section className={styles.firstCall}>
          <Heading as="h2">Your first call</Heading>
          <p>
            Start the sandbox with <code>npm start</code>, set <code>PASSWORD</code> to the demo password it prints, then ask for a token and
            read your products:
          </p>
          <CodeBlock language="bash" title="First call">
            {firstCall(origin)}
          </CodeBlock>
        </section>
        <section>
          <Heading as="h2">What do you want to do?</Heading>
          <TaskCards tasks={tasks} headingLevel="h3" />
        </section>
      </main>
    </Layout>
  );
}
