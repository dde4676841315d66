// Names of the first release that were renamed or dropped. Each keeps building for one more release, with a
// fix-it where the compiler can apply one. Nothing here is part of the API: new code never uses these names.

import Foundation
import HTTPMock
