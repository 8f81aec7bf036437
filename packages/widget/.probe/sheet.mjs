import { readdirSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';

const dir = process.argv[2],
  filter = process.argv[3],
  out = process.argv[4];
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.png') && f.includes(filter))
  .sort();
const html = `<body style="margin:0;background:#888;display:flex;flex-wrap:wrap;gap:8px;padding:8px;width:1900px;align-items:flex-start">${files.map((f) => `<figure style="margin:0"><img src="${f}"><figcaption>${f}</figcaption></figure>`).join('')}</body>`;
writeFileSync(`${dir}/_sheet.html`, html);
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const p = await b.newPage({ viewport: { width: 1916, height: 800 } });
await p.goto(`file://${dir}/_sheet.html`);
await p.screenshot({ path: out, fullPage: true });
await b.close();
