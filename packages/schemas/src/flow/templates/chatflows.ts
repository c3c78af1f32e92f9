import { attach, chain, link, ref, type FlowTemplate, templateNode } from './build';

const CHAT_PROMPT = 'You are a helpful assistant. Answer clearly and concisely, in the language of the user.';

function simpleChatbot(): FlowTemplate {
  const input = templateNode('input', 'qs01', { col: 0 }, []);
  const llm = templateNode(
    'llm',
    'qs01',
    { col: 1 },
    {
      systemPrompt: CHAT_PROMPT,
      prompt: ref(input, 'query'),
      pastMessageHistory: ref(input, 'history'),
    },
  );
  const output = templateNode('output', 'qs01', { col: 2 }, { response: ref(llm, 'response') });
  return {
    id: 'simple-chatbot',
    name: 'flowTemplates.simple-chatbot.name',
    type: 'chatflow',
    description: 'flowTemplates.simple-chatbot.description',
    configuration: chain(input, llm, output),
  };
}

function qaChatbot(): FlowTemplate {
  const input = templateNode('input', 'qa01', { col: 0 }, []);
  const retrieve = templateNode(
    'knowledge_retrieve',
    'qa01',
    { col: 1 },
    {
      query: ref(input, 'query'),
      number_documents: 10,
    },
  );
  const llm = templateNode(
    'llm',
    'qa01',
    { col: 2 },
    {
      systemPrompt:
        'Answer the question using only the context below. If the context does not hold the answer, say so.\n\n' +
        `Context:\n${ref(retrieve, 'context')}`,
      prompt: ref(input, 'query'),
      pastMessageHistory: ref(input, 'history'),
    },
  );
  const output = templateNode('output', 'qa01', { col: 3 }, { response: ref(llm, 'response') });
  return {
    id: 'qa-chatbot',
    name: 'flowTemplates.qa-chatbot.name',
    type: 'chatflow',
    description: 'flowTemplates.qa-chatbot.description',
    configuration: chain(input, retrieve, llm, output),
  };
}

function imageGeneration(): FlowTemplate {
  const input = templateNode('input', 'ig01', { col: 0 }, []);
  const llm = templateNode(
    'llm',
    'ig01',
    { col: 1 },
    {
      systemPrompt:
        'Rewrite the user’s idea as one detailed image prompt: subject, composition, lighting, style and colours. ' +
        'Answer with the prompt only.',
      prompt: ref(input, 'query'),
    },
    { label: 'nodeCatalog.templateNodes.promptEnhancer' },
  );
  const image = templateNode('dalle3', 'ig01', { col: 2 }, { prompt: ref(llm, 'response') });
  const output = templateNode(
    'output',
    'ig01',
    { col: 3 },
    {
      response: `![Generated image](${ref(image, 'image')})\n\n${ref(image, 'revised_prompt')}`,
      structured_output: { image: ref(image, 'image') },
    },
  );
  return {
    id: 'image-generation',
    name: 'flowTemplates.image-generation.name',
    type: 'chatflow',
    description: 'flowTemplates.image-generation.description',
    configuration: chain(input, llm, image, output),
  };
}

function audioContentCreator(): FlowTemplate {
  const input = templateNode('input', 'ac01', { col: 0 }, []);
  const llm = templateNode(
    'llm',
    'ac01',
    { col: 1 },
    {
      systemPrompt:
        'Write a short script meant to be read aloud (about one minute) on the subject given by the user. ' +
        'Plain sentences only: no headings, lists or stage directions.',
      prompt: ref(input, 'query'),
    },
    { label: 'nodeCatalog.templateNodes.scriptWriter' },
  );
  const speech = templateNode('text_to_speech', 'ac01', { col: 2 }, { input: ref(llm, 'response') });
  const output = templateNode(
    'output',
    'ac01',
    { col: 3 },
    {
      response: ref(llm, 'response'),
      structured_output: { audio: ref(speech, 'audio') },
    },
  );
  return {
    id: 'audio-content-creator',
    name: 'flowTemplates.audio-content-creator.name',
    type: 'chatflow',
    description: 'flowTemplates.audio-content-creator.description',
    configuration: chain(input, llm, speech, output),
  };
}

function audioTranscription(): FlowTemplate {
  const input = templateNode('input', 'at01', { col: 0 }, [
    { name: 'audio', type: 'audio', isMandatory: true },
  ]);
  const stt = templateNode('speech_to_text', 'at01', { col: 1 }, { file: ref(input, 'audio') });
  const llm = templateNode(
    'llm',
    'at01',
    { col: 2 },
    {
      systemPrompt:
        'You receive the transcript of a recording. Give a clean version of it (punctuation, paragraphs), ' +
        'then a short summary. Follow any instruction of the user.',
      prompt: `Instruction: ${ref(input, 'query')}\n\nTranscript:\n${ref(stt, 'text')}`,
    },
  );
  const output = templateNode(
    'output',
    'at01',
    { col: 3 },
    {
      response: ref(llm, 'response'),
      structured_output: { transcript: ref(stt, 'text') },
    },
  );
  return {
    id: 'audio-transcription',
    name: 'flowTemplates.audio-transcription.name',
    type: 'chatflow',
    description: 'flowTemplates.audio-transcription.description',
    configuration: chain(input, stt, llm, output),
  };
}

function figmaDev(): FlowTemplate {
  const input = templateNode('input', 'fd01', { col: 0 }, [
    { name: 'file_key', type: 'string', isMandatory: true },
    { name: 'node_ids', type: 'string', isMandatory: false },
  ]);
  const figma = templateNode(
    'figma_loader',
    'fd01',
    { col: 1 },
    {
      file_key: ref(input, 'file_key'),
      node_ids: ref(input, 'node_ids'),
    },
  );
  const llm = templateNode(
    'llm',
    'fd01',
    { col: 2 },
    {
      systemPrompt:
        'You are a front-end developer. Turn the Figma design described in JSON into a React component ' +
        'styled with Tailwind CSS. Keep the layout, spacing, colours and text of the design. Answer with the code.',
      prompt: `${ref(input, 'query')}\n\nDesign:\n${ref(figma, 'documents')}`,
      temperature: 0.2,
    },
  );
  const output = templateNode('output', 'fd01', { col: 3 }, { response: ref(llm, 'response') });
  return {
    id: 'figma-dev',
    name: 'flowTemplates.figma-dev.name',
    type: 'chatflow',
    description: 'flowTemplates.figma-dev.description',
    configuration: chain(input, figma, llm, output),
  };
}

function notionChatbot(): FlowTemplate {
  const input = templateNode('input', 'nc01', { col: 0 }, []);
  const notion = templateNode('notion_loader', 'nc01', { col: 1 }, { request_timeout_sec: 10 });
  const llm = templateNode(
    'llm',
    'nc01',
    { col: 2 },
    {
      systemPrompt:
        'Answer using the pages of the Notion database below; name the page you used. ' +
        `If they do not hold the answer, say so.\n\nPages:\n${ref(notion, 'documents')}`,
      prompt: ref(input, 'query'),
      pastMessageHistory: ref(input, 'history'),
    },
  );
  const output = templateNode('output', 'nc01', { col: 3 }, { response: ref(llm, 'response') });
  return {
    id: 'notion-chatbot',
    name: 'flowTemplates.notion-chatbot.name',
    type: 'chatflow',
    description: 'flowTemplates.notion-chatbot.description',
    configuration: chain(input, notion, llm, output),
  };
}

function agent(): FlowTemplate {
  const input = templateNode('input', 'ag01', { col: 0 }, []);
  const calculator = templateNode('calculator_tool', 'ag01', { col: 0, row: 1 }, {});
  const search = templateNode('vector_store_tool', 'ag01', { col: 1, row: 1 }, { number_documents: 5 });
  const guide = templateNode(
    'text_tool',
    'ag01',
    { col: 2, row: 1 },
    {
      name: 'answer_style_guide',
      description: 'How answers should be written. Read it before writing the final answer.',
      content:
        'Answer in short paragraphs. Give figures with their unit. Name the documents you relied on. ' +
        'When unsure, say what is missing.',
    },
  );
  const agentNode = templateNode(
    'agent',
    'ag01',
    { col: 1 },
    {
      systemPrompt:
        'You are an assistant that solves tasks step by step. Use the tools when they help: the calculator ' +
        'for any arithmetic, the knowledge search for facts about the organisation.',
      agentPrompt: ref(input, 'query'),
      pastMessageHistory: ref(input, 'history'),
      tools: [calculator.id, search.id, guide.id],
    },
  );
  const output = templateNode('output', 'ag01', { col: 2 }, { response: ref(agentNode, 'response') });
  return {
    id: 'agent',
    name: 'flowTemplates.agent.name',
    type: 'chatflow',
    description: 'flowTemplates.agent.description',
    configuration: {
      nodes: [input, agentNode, output, calculator, search, guide],
      edges: [
        link(input, agentNode),
        link(agentNode, output),
        attach(calculator, agentNode),
        attach(search, agentNode),
        attach(guide, agentNode),
      ],
    },
  };
}

export const chatflowTemplates = (): FlowTemplate[] => [
  simpleChatbot(),
  qaChatbot(),
  imageGeneration(),
  audioContentCreator(),
  audioTranscription(),
  figmaDev(),
  notionChatbot(),
  agent(),
];
