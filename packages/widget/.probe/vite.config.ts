export default {
  build: {
    outDir: '.probe/dist',
    minify: true,
    rolldownOptions: { output: { minify: true, comments: false } },
    lib: { entry: '.probe/entry.ts', formats: ['es'], fileName: () => 'x.js' },
  },
};
