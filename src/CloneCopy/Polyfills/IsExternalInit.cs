#if !NET
namespace System.Runtime.CompilerServices;

/// <summary>Lets netstandard2.0 compile records and init accessors; the compiler only needs the type to exist.</summary>
internal static class IsExternalInit
{
}
#endif
