// The verification snippet shown with a new webhook's secret: the Node.js version, without a library, of the one in the
// reference's Webhooks section (webhookDeliveryGuide in contract/src/v3/webhook-deliveries.ts). The console's browser
// test runs it on a real delivery, so it stays right.
export const verificationSnippet = `import { createHmac, timingSafeEqual } from 'node:crypto';

// secret: whsec_... from the console; headers: the request's headers; rawBody: the body as received, before JSON parsing.
export function verify(secret, headers, rawBody) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest();
  // The header may list several signatures separated by spaces (during secret rotation).
  return headers['webhook-signature'].split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
`;
