// Statuses as badges: colour for a glance, the status's own word for everyone.
type Tone = 'success' | 'danger' | 'warning' | 'info' | 'neutral';

const tones: Record<string, Tone> = {
  SHIPPED: 'success',
  DELIVERED: 'success',
  CHECKED: 'success',
  COMPLETED: 'success',
  ERROR: 'danger',
  FAILED: 'danger',
  PENDING: 'warning',
  EXPECTED: 'neutral',
  ACTIVE: 'success',
  INACTIVE: 'neutral',
};

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge tone-${tones[status] ?? 'info'}`}>{status}</span>;
}

const httpTones: Record<string, Tone> = { '2': 'success', '3': 'info', '4': 'warning', '5': 'danger' };

export function HttpStatus({ status }: { status: number }) {
  return <span className={`badge tone-${httpTones[String(status)[0]] ?? 'neutral'}`}>{status}</span>;
}
