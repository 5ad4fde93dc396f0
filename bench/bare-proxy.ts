/**
 * The floor of the gateway's stack, for the gateway benchmark: express and http-proxy-middleware
 * with a keep-alive agent, served as the gateway is (createExpressServer), and nothing else — no
 * token check, no limits, no request id. What the gateway costs above this is Tolk's own work;
 * what this costs above a direct call is the stack's.
 */
import http from 'node:http';
import express from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { createExpressServer } from '@tolk/http';
import { bareProxyConfig } from './config.js';

const config = bareProxyConfig();
const app = express();
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});
app.use(
  createProxyMiddleware({
    target: config.TARGET_URL,
    changeOrigin: true,
    agent: new http.Agent({ keepAlive: true, maxSockets: 512 }),
  }),
);
createExpressServer(app).listen(config.PORT, '127.0.0.1');
