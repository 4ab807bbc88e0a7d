export {
  type CurrentTimeToolOptions,
  createCurrentTimeTool,
  get_current_time,
} from "./get-current-time.js";
