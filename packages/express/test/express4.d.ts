// Express 4 installed under an npm alias, to run the smoke test against the older peer.
declare module 'express4' {
  import express from 'express';
  export default express;
}
