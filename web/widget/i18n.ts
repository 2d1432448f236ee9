/** The widget's UI text in English, Chinese and Spanish. */

/** Every string the widget shows. */
export interface Strings {
  title: string;
  greeting: string;
  open: string;
  close: string;
  placeholder: string;
  send: string;
  stop: string;
  offline: string;
  reconnecting: string;
  working: string;
  rateLimited: string;
  sendFailed: string;
  tasks: string;
  answer: string;
  timeLeft: string;
  expired: string;
  download: string;
  fileUnavailable: string;
  takeoverTitle: string;
  takeoverDone: string;
  running: string;
  done: string;
  failed: string;
  you: string;
  assistant: string;
  subAgent: string;
  error: string;
  approvalNeeded: string;
  approve: string;
  deny: string;
  approvalFailed: string;
  approvalWaiting: string;
}

export type Language = "en" | "zh" | "es";

const en: Strings = {
  title: "Chat with us",
  greeting: "Hi! How can I help you today?",
  open: "Open chat",
  close: "Close chat",
  placeholder: "Type your message…",
  send: "Send",
  stop: "Stop",
  offline: "Chat is offline right now. Please try again later.",
  reconnecting: "Reconnecting…",
  working: "Working…",
  rateLimited: "Too many messages. Please wait a moment.",
  sendFailed: "Your message could not be sent.",
  tasks: "Tasks",
  answer: "Answer",
  timeLeft: "Time left",
  expired: "This question has expired.",
  download: "Download",
  fileUnavailable: "This file is not available.",
  takeoverTitle: "Your turn in the browser",
  takeoverDone: "Done",
  running: "running",
  done: "done",
  failed: "failed",
  you: "You",
  assistant: "Assistant",
  subAgent: "Sub-agent",
  error: "Something went wrong:",
  approvalNeeded: "Approval needed:",
  approve: "Approve",
  deny: "Deny",
  approvalFailed: "Your decision could not be sent.",
  approvalWaiting: "Waiting for the site's owner to approve or deny it.",
};

const zh: Strings = {
  title: "在线咨询",
  greeting: "您好！有什么可以帮您？",
  open: "打开聊天",
  close: "关闭聊天",
  placeholder: "输入消息…",
  send: "发送",
  stop: "停止",
  offline: "聊天暂时不可用，请稍后再试。",
  reconnecting: "正在重新连接…",
  working: "处理中…",
  rateLimited: "消息过多，请稍候。",
  sendFailed: "消息发送失败。",
  tasks: "任务",
  answer: "回答",
  timeLeft: "剩余时间",
  expired: "此问题已过期。",
  download: "下载",
  fileUnavailable: "该文件不可用。",
  takeoverTitle: "请在浏览器中操作",
  takeoverDone: "完成",
  running: "进行中",
  done: "完成",
  failed: "失败",
  you: "您",
  assistant: "助手",
  subAgent: "子代理",
  error: "出错了：",
  approvalNeeded: "需要批准：",
  approve: "批准",
  deny: "拒绝",
  approvalFailed: "未能发送您的决定。",
  approvalWaiting: "正在等待网站所有者批准或拒绝。",
};

const es: Strings = {
  title: "Chatea con nosotros",
  greeting: "¡Hola! ¿En qué puedo ayudarte hoy?",
  open: "Abrir chat",
  close: "Cerrar chat",
  placeholder: "Escribe tu mensaje…",
  send: "Enviar",
  stop: "Detener",
  offline: "El chat no está disponible ahora. Inténtalo más tarde.",
  reconnecting: "Reconectando…",
  working: "Trabajando…",
  rateLimited: "Demasiados mensajes. Espera un momento.",
  sendFailed: "No se pudo enviar tu mensaje.",
  tasks: "Tareas",
  answer: "Responder",
  timeLeft: "Tiempo restante",
  expired: "Esta pregunta ha caducado.",
  download: "Descargar",
  fileUnavailable: "Este archivo no está disponible.",
  takeoverTitle: "Tu turno en el navegador",
  takeoverDone: "Listo",
  running: "en curso",
  done: "hecho",
  failed: "falló",
  you: "Tú",
  assistant: "Asistente",
  subAgent: "Subagente",
  error: "Algo salió mal:",
  approvalNeeded: "Se necesita aprobación:",
  approve: "Aprobar",
  deny: "Denegar",
  approvalFailed: "No se pudo enviar tu decisión.",
  approvalWaiting: "Esperando a que el dueño del sitio lo apruebe o lo rechace.",
};

const ALL: Record<Language, Strings> = { en, zh, es };

/** The strings for `data-language`, else the browser's language, else English. */
export function stringsFor(requested: string | null): { lang: Language; strings: Strings } {
  const candidates = [requested, typeof navigator === "undefined" ? null : navigator.language];
  for (const c of candidates) {
    const lang = c?.toLowerCase().slice(0, 2);
    if (lang === "en" || lang === "zh" || lang === "es") return { lang, strings: ALL[lang] };
  }
  return { lang: "en", strings: en };
}
