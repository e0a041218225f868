/**
 * The same-run baseline of the server figures: a bare Fastify JSON echo (no
 * validation, storage or plugins), started as its own process like the real
 * server, so a submit figure can be read as a share of what Fastify and the
 * load generator manage on this machine at this moment.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
app.post('/echo', async (request) => request.body);
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
