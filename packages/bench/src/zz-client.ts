import { clientBench } from './benches/client.js';

const t = Date.now();
const r = await clientBench.run({
  browser: () => {
    throw new Error('no');
  },
  log: console.log,
});
console.log(JSON.stringify(r), Date.now() - t);
