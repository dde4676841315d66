// The HTTPMock demo: an app's API client runs, unchanged, against mocked responses, as it would in a SwiftUI
// preview or an app's demo mode. Run it with `swift run Demo`.

print("HTTPMock demo: a typed API client for posts, albums and to-dos, answered by mocks (no network used)")
await Scenes.previewData()
await Scenes.retryAfterServiceUnavailable()
await Scenes.offline()
await Scenes.strictPolicy()
await Scenes.overRealHTTP()
await Scenes.streamingAnswer()
print("\nDone. Every answer above came from HTTPMock.")
