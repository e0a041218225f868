import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink';
import { selfSignedCert } from '../../support/tls-cert';
import { newWebhookSecret, startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { captureLogs, ERROR_LEVEL, type LogLine } from '../log-capture';
import { postForm } from '../no-script/no-script-support';
import { brandsWith, extendedRequest, jpegWithGps, png, startTestServer, submit, uploadedName, type TestServer } from '../helpers';

/** Two people's data, each value unusual enough that finding it in the log can only mean it leaked. */
const ANNA = {
  last_name: 'Annemarie Zwaantjes-Oudkerk',
  street_name: 'Kwartelkoningstraat',
  phone_number: '0698765432',
  phone_number2: '0031201112233',
  client_email: 'anna.zwaantjes+portal@zwaantjes-mail.example',
  notification: 'dealer.vanrijn@rijnwitgoed.example',
};
const PIETER = {
  last_name: 'Pieterbas Kraaienhorst',
  street_name: 'Ijsvogelsingel',
  phone_number: '0655512345',
  client_email: 'p.kraaienhorst@kraai-post.example',
};

/** Stands in for the SSR build: the page a refused post gets back is not what this test reads. */
const SSR_STANDIN = 'export async function render() { return { title: "Teka | Service", html: "<form></form>" }; }\n';

let server: TestServer;
let smtp: SmtpSink;
let receiver: WebhookReceiver;
let tls: ReturnType<typeof selfSignedCert>;
const logs = captureLogs();
logs.logger.level = 'trace';

beforeAll(async () => {
  tls = selfSignedCert();
  smtp = await startSmtpSink();
  const secret = newWebhookSecret();
  receiver = await startWebhookReceiver(secret, tls);
  server = await startTestServer(
    {
      // The receiver runs on this machine: a loopback address the brand file allows.
      BRANDS_DIR: brandsWith({ teka: { webhook: { url: receiver.url, secretEnv: 'TEKA_WEBHOOK_SECRET', allowPrivateNetwork: true } } }),
      TEKA_WEBHOOK_SECRET: secret,
      WEBHOOK_CA_FILE: tls.certFile,
      SMTP_URL: smtp.url,
      MAIL_FROM: 'service@portal.example.com',
      MAIL_RETRY_BASE_MS: '20',
    },
    { 'ssr/entry-server.js': SSR_STANDIN, 'pages/teka/nl/be.html': '<!doctype html><title>Teka</title>' },
    { logger: logs.logger },
  );
});
afterAll(async () => {
  await server.dispose();
  await Promise.all([smtp.close(), receiver.close()]);
  tls.dispose();
});

async function twoPhotos(): Promise<[string, string]> {
  return [await uploadedName(server.url, await jpegWithGps()), await uploadedName(server.url, await png(), 'b.png', 'image/png')];
}

/** What the form posts without scripts: root_<field> parts, the photos, the page's submission key. */
function noScriptForm(values: Record<string, string>, photos: [Buffer, Buffer]): FormData {
  const form = new FormData();
  form.append('submission', crypto.randomUUID());
  for (const [name, value] of Object.entries(values)) form.append(`root_${name}`, value);
  form.append('root_upload_1', new Blob([new Uint8Array(photos[0])], { type: 'image/jpeg' }), `${PIETER.last_name}.jpg`);
  form.append('root_upload_2', new Blob([new Uint8Array(photos[1])], { type: 'image/png' }), 'bon.png');
  return form;
}

const logText = () => logs.lines.map((line) => JSON.stringify(line)).join('\n');

describe('the server log of a full run holds no personal data', { timeout: 60_000 }, () => {
  it('finds none of the submitted values, signed links or signatures, while every step is logged by reference', async () => {
    // The customer's mail server refuses her address, quoting it, as real ones do.
    smtp.refuse(ANNA.client_email);

    // Uploads and a JSON submit.
    const [image1, image2] = await twoPhotos();
    const res = await submit(server.url, 'teka', { ...extendedRequest(image1, image2, 'nl'), ...ANNA }, { 'X-Portal-Locale': 'nl' });
    expect(res.status).toBe(201);
    const { reference } = (await res.json()) as { reference: string };

    // A post without scripts: one refused (kept values come back), one stored.
    const pietersPhotos: [Buffer, Buffer] = [await jpegWithGps(), await png()];
    const typed = Object.entries({ ...extendedRequest('', ''), ...PIETER }).filter(([name]) => !['image1', 'image2', 'brand', 'language', 'isAkkoord'].includes(name));
    const values = { ...Object.fromEntries(typed.map(([name, value]) => [name, String(value)])), isAkkoord: 'on' };
    const refused = await postForm(server, '/teka/nl/be', noScriptForm({ ...values, house_number: 'nummer 12' }, pietersPhotos));
    expect(refused.status).toBe(400);
    const stored = await postForm(server, '/teka/nl/be', noScriptForm(values, pietersPhotos));
    expect(stored.status).toBe(303);

    // The webhook carries signed photo links; the receiver follows one, someone tries a forged one.
    const webhook = await receiver.waitFor((w) => w.event.data.reference === reference);
    const photoLinks = (webhook.event.data.photos as { url: string }[]).map((p) => p.url);
    expect((await fetch(photoLinks[0])).status).toBe(200);
    // One character of the signature changed (to another: a signature may start with A).
    const forged = photoLinks[1].replace(/signature=(.)/, (_, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`);
    expect((await fetch(forged)).status).toBe(403);

    // Errors: a body that does not parse (it quotes itself), and the values in a URL, as a form without method sends them.
    const broken = await fetch(`${server.url}/api/forms/teka`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"last_name": "${ANNA.last_name}", "client_email": "${ANNA.client_email}", "phone_number": ${ANNA.phone_number}x`,
    });
    expect(broken.status).toBe(400);
    const query = new URLSearchParams({ root_last_name: PIETER.last_name, root_client_email: PIETER.client_email, root_street_name: PIETER.street_name });
    expect((await fetch(`${server.url}/teka/nl/be?${query}`)).status).toBeLessThan(500);
    // An address in the path (a mistyped link, a probe), as typed and %-encoded.
    for (const address of [PIETER.client_email, encodeURIComponent(PIETER.client_email)]) expect((await fetch(`${server.url}/teka/${address}/be`)).status).toBeLessThan(500);

    // The customer's confirmation fails for good: logged at error level with the reference, and the server's refusal.
    const failure = () => logs.lines.find((l: LogLine) => l.level === ERROR_LEVEL && l.reference === reference && l.kind === 'confirmation');
    await expect.poll(failure, { timeout: 20_000 }).toBeDefined();
    expect(failure()!.err).toMatch(/550 <\[email\]> unknown user/);

    // The stored requests are in the log by reference (the JSON one and the one without scripts); the photo link's request too, without its query.
    expect(logs.lines.some((l) => l.reference === reference && l.msg === 'request stored')).toBe(true);
    expect(logs.lines.filter((l) => l.msg === 'request stored').map((l) => l.reference)).toHaveLength(2);
    const photoRequest = logs.lines.find((l) => (l.req as { url?: string } | undefined)?.url?.startsWith('/api/photos/'));
    expect(photoRequest).toBeDefined();

    const log = logText();
    const signatures = photoLinks.map((link) => new URL(link).searchParams.get('signature')!);
    const secrets = [
      ...Object.values(ANNA),
      ...Object.values(PIETER),
      ANNA.client_email.toLowerCase(),
      'anna.zwaantjes',
      'kraaienhorst',
      ...photoLinks,
      ...photoLinks.map((link) => new URL(link).search),
      ...signatures,
      // A signature survives URL-encoding in some logs: look for that too.
      ...signatures.map(encodeURIComponent),
    ];
    for (const secret of secrets) expect(log.toLowerCase(), `the log holds ${secret}`).not.toContain(secret.toLowerCase());
  });
});
