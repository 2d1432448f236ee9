/** The widget's stylesheet, scoped by its shadow root. */
export const WIDGET_CSS = `
:host{all:initial!important}
*{box-sizing:border-box}
.cw{letter-spacing:normal;word-spacing:normal;text-transform:none;text-align:left;text-indent:0;font-style:normal;white-space:normal;direction:ltr;visibility:visible;--accent:#2563eb;--on-accent:#fff;position:fixed;bottom:20px;right:20px;z-index:2147483000;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"PingFang SC","Microsoft YaHei",sans-serif;color:#111827}
.cw.left{right:auto;left:20px}
.launcher{width:56px;height:56px;border-radius:50%;border:0;background:var(--accent);color:var(--on-accent);cursor:pointer;box-shadow:0 6px 20px rgba(0,0,0,.25);display:flex;align-items:center;justify-content:center}
.launcher svg{width:26px;height:26px;fill:currentColor}
.launcher:focus-visible,button:focus-visible,textarea:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.panel{position:absolute;bottom:72px;right:0;width:380px;max-width:calc(100vw - 40px);height:560px;max-height:calc(100vh - 110px);background:#fff;border-radius:14px;box-shadow:0 12px 40px rgba(0,0,0,.25);display:flex;flex-direction:column;overflow:hidden}
.cw.left .panel{right:auto;left:0}
.panel[hidden]{display:none}
header{display:flex;align-items:center;gap:8px;padding:12px 14px;background:var(--accent);color:var(--on-accent)}
header h2{flex:1;margin:0;font-size:15px;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
header button{background:transparent;border:0;color:inherit;font-size:20px;cursor:pointer;padding:2px 8px;border-radius:6px}
.status{padding:6px 14px;font-size:12px;background:#fef3c7;color:#92400e}
.status:empty{display:none}
.log{flex:1;overflow-y:auto;padding:12px 14px;display:flex;flex-direction:column;gap:8px}
.transcript{display:flex;flex-direction:column;gap:8px}
.msg{max-width:88%;padding:8px 12px;border-radius:12px;word-wrap:break-word;overflow-wrap:anywhere}
.msg.assistant,.greeting{background:#f3f4f6;align-self:flex-start}
.msg.user,.msg.pending{background:var(--accent);color:var(--on-accent);align-self:flex-end}
.msg.pending{opacity:.6}
.msg.user a{color:inherit}
.md p,.md ul,.md ol,.md pre,.md blockquote,.md h3,.md h4,.md h5,.md h6{margin:0 0 6px}
.md>:last-child{margin-bottom:0}
.md pre{background:#111827;color:#f9fafb;padding:8px;border-radius:6px;overflow-x:auto;font-size:12px}
.md code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px}
.md blockquote{border-left:3px solid #d1d5db;padding-left:8px;color:#4b5563}
.md ul,.md ol{padding-left:20px}
.row{font-size:12px;color:#4b5563;align-self:flex-start}
.tool::before{content:"⚙ "}
.tool[data-status=done] .tool-status{color:#047857}
.tool[data-status=failed] .tool-status{color:#b91c1c}
.tool-name{font-family:ui-monospace,Menlo,Consolas,monospace}
.error{color:#b91c1c}
.file a,.file button{color:var(--accent);background:none;border:0;padding:0;font:inherit;text-decoration:underline;cursor:pointer}
.working{font-size:12px;color:#6b7280;padding:0 14px 6px}
.working[hidden]{display:none}
.tasks{border-top:1px solid #e5e7eb;padding:8px 14px;font-size:12px;max-height:110px;overflow-y:auto}
.tasks:empty{display:none}
.tasks h3{margin:0 0 4px;font-size:12px}
.tasks ul{margin:0;padding-left:18px}
.tasks li[data-status=completed]{text-decoration:line-through;color:#6b7280}
.tasks li[data-status=in_progress]{font-weight:600}
.question{border-top:1px solid #e5e7eb;padding:10px 14px;background:#eff6ff;display:flex;flex-direction:column;gap:6px}
.q-text{margin:0;font-weight:600}
.q-options{display:flex;flex-wrap:wrap;gap:6px}
.q-option,.q-submit{border:1px solid var(--accent);background:#fff;color:var(--accent);border-radius:16px;padding:5px 12px;cursor:pointer;font:inherit}
.q-option:hover,.q-submit:hover{background:var(--accent);color:var(--on-accent)}
.q-checks{border:0;margin:0;padding:0;display:flex;flex-direction:column;gap:4px;align-items:flex-start}
.q-free{display:flex;gap:6px}
.q-free textarea{flex:1}
.q-foot{font-size:12px;color:#4b5563}
.q-error{font-size:12px;color:#b91c1c}
.q-error:empty{display:none}
.question.expired{opacity:.6}
.approval{border-top:1px solid #e5e7eb;padding:10px 14px;background:#fffbeb;display:flex;flex-direction:column;gap:6px}
.approval-title,.approval-reason{margin:0}
.approval-title{font-weight:600}
.approval-reason{font-size:12px;color:#4b5563}
.approval-args{margin:0;max-height:120px;overflow:auto;font-size:12px;background:#fff;border:1px solid #e5e7eb;border-radius:6px;padding:6px;white-space:pre-wrap;word-break:break-word}
.approval-actions{display:flex;gap:6px}
.approval-actions button{border:1px solid var(--accent);background:#fff;color:var(--accent);border-radius:16px;padding:5px 12px;cursor:pointer;font:inherit}
.approval-actions .approval-approve{background:var(--accent);color:var(--on-accent)}
.approval-error{font-size:12px;color:#b91c1c}
.approval-error:empty{display:none}
form.composer{display:flex;gap:6px;padding:10px;border-top:1px solid #e5e7eb}
textarea{flex:1;resize:none;font:inherit;padding:8px;border:1px solid #d1d5db;border-radius:8px;min-height:40px;max-height:120px;color:#111827;background:#fff}
.send,.stop{border:0;border-radius:8px;padding:0 14px;cursor:pointer;font:inherit;background:var(--accent);color:var(--on-accent)}
.stop{background:#6b7280}
.stop[hidden]{display:none}
button:disabled{opacity:.5;cursor:default}
.takeover-slot{padding:8px 12px;border-top:1px solid #e5e7eb}.takeover-slot[hidden]{display:none}
.live-view{margin:6px 0;outline:none}.live-view:focus{box-shadow:0 0 0 2px var(--accent,#2563eb)}
.live-frame{display:block;width:100%;min-height:40px;background:#f3f4f6;cursor:crosshair}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
@media (max-width:480px){.cw{bottom:12px;right:12px}.cw.left{left:12px}.panel{position:fixed;inset:0;width:100vw;max-width:none;height:100%;max-height:none;border-radius:0}}
`;
