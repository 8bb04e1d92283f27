// Cards that lead to the portal's main tasks, each with a small inline icon (no icon font, no remote image).
import type {CSSProperties, ReactNode} from 'react';
import Link from '@docusaurus/Link';
import Heading from '@theme/Heading';
import styles from './styles.module.css';

export interface Task {
  title: string;
  to: string;
  text: string;
  /** The path data of a 24×24 outline icon. */
  icon: string;
}

export const icons = {
  start: 'M5 12h14M13 6l6 6-6 6',
  order: 'M4 6h16l-2 10H6L4 6zm3 14a1 1 0 1 0 0-2 1 1 0 0 0 0 2zm10 0a1 1 0 1 0 0-2 1 1 0 0 0 0 2z',
  reference: 'M6 4h9l3 3v13H6V4zm3 6h6M9 14h6',
  sandbox: 'M4 7l8-4 8 4v10l-8 4-8-4V7zm0 0l8 4 8-4M12 11v10',
  webhook: 'M12 4a4 4 0 0 0-3.5 6L5 16m7-12a4 4 0 0 1 3.5 6L19 16M5 16a3 3 0 1 0 3 3h8a3 3 0 1 0 3-3',
  migrate: 'M4 8h13l-3-3m6 11H7l3 3',
  search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zm5-2l4 4',
};

export default function TaskCards({tasks, headingLevel = 'h2'}: {tasks: Task[]; headingLevel?: 'h2' | 'h3'}): ReactNode {
  // Cards per row on a wide screen, so that every row is full: six as 3 + 3, four in one row.
  const columns = [4, 3, 2].find((count) => tasks.length % count === 0) ?? 3;
  return (
    <ul className={styles.cards} style={{'--task-columns': columns} as CSSProperties}>
      {tasks.map((task) => (
        <li key={task.to}>
          <Link className={styles.card} to={task.to}>
            <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true">
              <path d={task.icon} />
            </svg>
            <Heading as={headingLevel} className={styles.title}>
              {task.title}
            </Heading>
            <p>{task.text}</p>
          </Link>
        </li>
      ))}
    </ul>
  );
}
