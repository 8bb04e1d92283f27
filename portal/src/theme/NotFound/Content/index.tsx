// The not-found page with a way on: the site search and the portal's main destinations.
import type {ReactNode} from 'react';
import clsx from 'clsx';
import Heading from '@theme/Heading';
import SearchBar from '@theme/SearchBar';
import TaskCards, {icons} from '@site/src/components/TaskCards';

const destinations = [
  {title: 'Documentation', to: '/docs', text: 'Guides and general concepts.', icon: icons.start},
  {title: 'Get started', to: '/docs/get-started/', text: 'From a first token to going live.', icon: icons.order},
  {title: 'Shop API v3 reference', to: '/specs/v3/', text: 'Every operation, with a try-it.', icon: icons.reference},
  {title: 'Shop API v2 reference', to: '/specs/v2/', text: 'The legacy API.', icon: icons.migrate},
];

export default function NotFoundContent({className}: {className?: string}): ReactNode {
  return (
    <main className={clsx('container margin-vert--xl', className)}>
      <Heading as="h1" className="hero__title">
        Page Not Found
      </Heading>
      <p>We could not find what you were looking for. Search the portal, or start from one of its main pages.</p>
      <div className="margin-bottom--lg">
        <SearchBar />
      </div>
      <TaskCards tasks={destinations} />
    </main>
  );
}
