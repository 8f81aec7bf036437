// @verify-kit/express/protocol: the widget <-> kit protocol, from @verify-kit/protocol.
export * from '@verify-kit/protocol';
