declare module '*?inline' {
  const css: string;
  export default css;
}
