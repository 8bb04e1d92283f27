// The right-hand panel of an operation page: the contract's code samples and the try-it, rendered once the panel
// comes into view. The try-it's modules (postman-collection, react-hook-form, the body editor: about 1 MB, without
// faker: plugins/try-it-without-faker) would otherwise load and run on every operation page before anyone can use
// them, and highlighting the samples is a good part of the page's start-up work; on a phone the panel sits below the
// operation's description, so a visit that only reads the reference does neither.
import {lazy, Suspense, useEffect, useRef, useState, type ReactNode, type RefObject} from 'react';
import SkeletonLoader from '@theme/SkeletonLoader';
import CodeSnippets, {type CodeSample} from './CodeSnippets';

const TryIt = lazy(() => import('@site/src/components/TryIt'));

interface Item {
  method: string;
  'x-codeSamples'?: CodeSample[];
}

/** True from the moment the element comes within a quarter of a screen below the viewport. */
function useSeen(): [RefObject<HTMLDivElement | null>, boolean] {
  const ref = useRef<HTMLDivElement>(null);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (!ref.current || seen) return;
    const observer = new IntersectionObserver((entries) => setSeen(entries.some((entry) => entry.isIntersecting)), {rootMargin: '0px 0px 25% 0px'});
    observer.observe(ref.current);
    return () => observer.disconnect();
  }, [seen]);
  return [ref, seen];
}

export default function ApiExplorer({item}: {item: Item}): ReactNode {
  const [panel, seen] = useSeen();
  return (
    <div ref={panel}>
      {seen ? (
        <>
          {item.method !== 'event' && <CodeSnippets codeSamples={item['x-codeSamples'] ?? []} />}
          <Suspense fallback={<SkeletonLoader size="lg" />}>
            <TryIt item={item} />
          </Suspense>
        </>
      ) : (
        <SkeletonLoader size="lg" />
      )}
    </div>
  );
}
