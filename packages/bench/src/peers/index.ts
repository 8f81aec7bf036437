import { authJs } from './authjs.js';
import { betterAuthPeer } from './better-auth.js';
import { clerk } from './clerk.js';

/** The peers `pnpm bench` measures verify-kit's gate beside, by the name of their routes and figures. */
export const PEERS = { authJs, clerk, betterAuth: betterAuthPeer };
export type PeerName = keyof typeof PEERS;
export const PEER_NAMES = Object.keys(PEERS) as PeerName[];
export type { Peer } from './peer.js';
