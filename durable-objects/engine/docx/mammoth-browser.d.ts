/** mammoth's own browser build: the same code in workerd tests and in the deployed bundle. */
declare module "mammoth/mammoth.browser.js" {
  import mammoth = require("mammoth");
  export default mammoth;
}
