import { Agent, type Dispatcher } from 'undici';

/** A dispatcher whose connections come from `localAddress` (any of 127.0.0.0/8 reaches 127.0.0.1). */
export function fromAddress(localAddress: string): Dispatcher {
  return new Agent({ localAddress });
}
