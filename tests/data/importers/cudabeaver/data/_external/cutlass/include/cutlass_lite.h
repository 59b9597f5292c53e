#pragma once
/* a stand-in for the bundled library headers */
