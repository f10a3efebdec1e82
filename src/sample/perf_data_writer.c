/* placeholder */
#include <config.h>
