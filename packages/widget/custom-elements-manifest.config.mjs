// `cem analyze` writes custom-elements.json (attributes, properties, events, slots, parts, CSS
// properties) from the element's source and JSDoc. Generated at build, not committed.

/** Keeps the manifest to the public surface: no private members, no attributes of internal state. */
function publicSurfaceOnly() {
  return {
    name: 'verify-kit:public-surface-only',
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules) {
        for (const decl of mod.declarations ?? []) {
          const internal = (name) => name.startsWith('_') || name.startsWith('#');
          if (decl.members)
            decl.members = decl.members.filter((m) => m.privacy !== 'private' && !internal(m.name));
          if (decl.attributes)
            decl.attributes = decl.attributes.filter((a) => !internal(a.fieldName ?? a.name));
        }
      }
    },
  };
}

export default {
  globs: ['src/verify-identity.component.ts', 'src/verify-identity.ts'],
  outdir: '.',
  litelement: true,
  plugins: [publicSurfaceOnly()],
};
