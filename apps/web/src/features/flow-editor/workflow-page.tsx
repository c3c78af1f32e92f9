import { FlowEditorPage } from './flow-editor-page';

/** /studio/workflow/$chatbotId */
export default function WorkflowPage() {
  return <FlowEditorPage type="workflow" />;
}
