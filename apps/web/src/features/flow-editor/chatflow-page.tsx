import { FlowEditorPage } from './flow-editor-page';

/** /studio/chatflow/$chatbotId */
export default function ChatflowPage() {
  return <FlowEditorPage type="chatflow" />;
}
