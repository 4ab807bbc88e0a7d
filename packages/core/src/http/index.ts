export {
  type DescribeErrorBodyOptions,
  describeErrorBody,
  describeHttpFailure,
} from "./describe-error-body.js";
