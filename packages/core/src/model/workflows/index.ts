export {
  addWorkflow,
  deleteWorkflow,
  getDefaultWorkflow,
  getWorkflow,
  listWorkflows,
  updateWorkflow,
  workflowJson,
  workflowStepsJson,
} from './workflows.ts';
export {
  workflowColors,
  type WorkflowBody,
  type WorkflowColor,
  type WorkflowRecord,
  type WorkflowStepBody,
} from './workflow-body.ts';
