export { EmptyOutlineError } from "./empty-outline-error.js";
