// The Workers runtime's Request, Response and WebSocket under names of their own, for the files
// the web's type check reads too (team/team-live.ts), where the plain names are the DOM's; the
// web gives these names the same types from the importable edition (web/worker-types.d.ts).
type WorkerRequest = Request;
type WorkerResponse = Response;
type WorkerWebSocket = WebSocket;
