import type { GraphIssue } from "../error/graph-validation-error.js";
import { END_NAME, START_NAME } from "../node/endpoints.js";
import type { GraphDeclaration, GraphTopology } from "./graph-topology.js";

const quote = (name: string): string => `"${name}"`;

function endpointIssues(declaration: GraphDeclaration): GraphIssue[] {
  const issues: GraphIssue[] = [];
  const known = (name: string) => declaration.nodes.has(name);
  for (const { from, to } of declaration.edges) {
    const edge = `Edge ${quote(from)} -> ${quote(to)}`;
    if (from === END_NAME) {
      issues.push({ code: "invalid_edge", nodes: [from, to], message: `${edge} leaves END` });
    } else if (from !== START_NAME && !known(from)) {
      issues.push({
        code: "unknown_node",
        nodes: [from],
        message: `${edge} starts at unknown node ${quote(from)}`,
      });
    }
    if (to === START_NAME) {
      issues.push({ code: "invalid_edge", nodes: [from, to], message: `${edge} enters START` });
    } else if (to !== END_NAME && !known(to)) {
      issues.push({
        code: "unknown_node",
        nodes: [to],
        message: `${edge} leads to unknown node ${quote(to)}`,
      });
    }
  }
  for (const branch of declaration.branches) {
    const where = `Conditional edge from ${quote(branch.source)}`;
    if (branch.source === END_NAME) {
      issues.push({ code: "invalid_edge", nodes: [END_NAME], message: `${where} leaves END` });
    } else if (branch.source !== START_NAME && !known(branch.source)) {
      issues.push({
        code: "unknown_node",
        nodes: [branch.source],
        message: `${where} starts at unknown node ${quote(branch.source)}`,
      });
    }
    for (const target of branch.targets ?? []) {
      if (target === START_NAME) {
        issues.push({
          code: "invalid_edge",
          nodes: [branch.source, target],
          message: `${where} declares START as a target`,
        });
      } else if (target !== END_NAME && !known(target)) {
        issues.push({
          code: "unknown_node",
          nodes: [target],
          message: `${where} declares unknown target ${quote(target)}`,
        });
      }
    }
  }
  return issues;
}

function reachabilityIssues(topology: GraphTopology): GraphIssue[] {
  const issues: GraphIssue[] = [];
  if (topology.possibleTargets(START_NAME).length === 0) {
    issues.push({
      code: "no_entry",
      nodes: [START_NAME],
      message: "START has no outgoing edge: add an edge from START to the first node",
    });
  }
  for (const name of topology.unreachableFromStart()) {
    issues.push({
      code: "unreachable",
      nodes: [name],
      message: `Node ${quote(name)} is not reachable from START`,
    });
  }
  for (const name of topology.withoutPathToEnd()) {
    issues.push({
      code: "no_path_to_end",
      nodes: [name],
      message: `Node ${quote(name)} has no path to END`,
    });
  }
  return issues;
}

/**
 * Every rule a graph breaks, found in O(nodes + edges): edges touching unknown nodes or entering START / leaving END,
 * no entry, nodes unreachable from START, nodes with no path to END. A conditional edge
 * without declared targets counts as able to reach every node and END.
 */
export function validateGraph(
  declaration: GraphDeclaration,
  topology: GraphTopology,
): GraphIssue[] {
  return [...endpointIssues(declaration), ...reachabilityIssues(topology)];
}
