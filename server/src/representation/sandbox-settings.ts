// Sandbox settings: the client's settings as one resource, whose id is the client's.
import type { SandboxSettings } from '../modules/reference/settings.ts';

export const sandboxSettingsResource = (clientId: number, attributes: SandboxSettings, base: string) => ({
  type: 'sandboxSettings',
  id: clientId,
  attributes,
  links: { self: `${base}/sandbox/settings` },
});
