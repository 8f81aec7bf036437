import { kit } from '@/lib/verify-kit';

export const { GET, HEAD, POST } = kit.handlers;
