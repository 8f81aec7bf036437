import http from 'node:http';
import express from 'express';

const app = express(); // your app: express-session, the kit's router, your routes

const server = http.createServer(
  {
    headersTimeout: 10_000, // the request line and headers within 10 s
    requestTimeout: 30_000, // the whole request (headers and body) within 30 s
    connectionsCheckingInterval: 1_000, // enforce both every second (default 30 s)
  },
  app,
);
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT ?? 3000));

export { server };
