// @verify-kit/widget/react: <VerifyIdentity> for React, typed props and on<Event> handlers. Safe to
// import during server rendering: nothing here touches `window` at module load.
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import {
  type ErrorDetail,
  type PhaseChangeDetail,
  VerifyIdentity as VerifyIdentityElement,
} from './verify-identity.js';

export type { ErrorDetail, PhaseChangeDetail } from './verify-identity.js';

type PhaseEvent = EventName<CustomEvent<PhaseChangeDetail>>;

/** `<verify-identity>` as a React component: `onApproved`, `onRejected`, `onExpired`, `onPhaseChange`, `onError`. */
export const VerifyIdentity = createComponent({
  tagName: 'verify-identity',
  elementClass: VerifyIdentityElement,
  react: React,
  events: {
    onPhaseChange: 'phase-change' as PhaseEvent,
    onApproved: 'approved' as PhaseEvent,
    onRejected: 'rejected' as PhaseEvent,
    onExpired: 'expired' as PhaseEvent,
    onError: 'verify-identity-error' as EventName<CustomEvent<ErrorDetail>>,
  },
  displayName: 'VerifyIdentity',
});
