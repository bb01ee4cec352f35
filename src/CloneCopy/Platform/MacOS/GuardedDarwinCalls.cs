using System;
using System.Threading;

namespace CloneCopy.Platform.MacOS;

/// <summary>
/// The libc calls as the engine may use them: a binding that cannot be made (DllNotFoundException,
/// EntryPointNotFoundException: a renamed symbol, an unexpected libc) must not escape from a Copy as an
/// MSB4018 crash. The first such failure switches the calls off for the process (a binding that failed
/// once fails every time) and each call then answers with an errno: ENOSYS for stat and lstat, which
/// PathProbe answers by asking .NET and the cloner by one CLC002 diagnostic and a copy; ENOTSUP for
/// clonefile, which the engine treats as "this volume cannot clone". Linux guards its statx the same way
/// (LinuxFileTransfer.IsUsable).
/// </summary>
internal sealed class GuardedDarwinCalls : IDarwinCalls
{
    /// <summary>ENOSYS on macOS: "function not implemented".</summary>
    public const int ENOSYS = 78;

    private readonly IDarwinCalls _calls;
    private int _broken;

    public GuardedDarwinCalls(IDarwinCalls calls) => _calls = calls;

#if NET
    /// <summary>The real libc calls, guarded.</summary>
    public static GuardedDarwinCalls Instance { get; } = new(DarwinLibC.Instance);
#endif

    /// <summary>True once a binding has failed.</summary>
    public bool IsBroken => Volatile.Read(ref _broken) != 0;

    public int Stat(string path, out DarwinFileStatus status)
    {
        status = default;
        try
        {
            return IsBroken ? ENOSYS : _calls.Stat(path, out status);
        }
        catch (Exception e) when (IsBindingFailure(e))
        {
            return ENOSYS;
        }
    }

    public int LStat(string path, out DarwinFileStatus status)
    {
        status = default;
        try
        {
            return IsBroken ? ENOSYS : _calls.LStat(path, out status);
        }
        catch (Exception e) when (IsBindingFailure(e))
        {
            return ENOSYS;
        }
    }

    public int CloneFile(string source, string destination, uint flags)
    {
        try
        {
            return IsBroken ? MacCloneErrors.ENOTSUP : _calls.CloneFile(source, destination, flags);
        }
        catch (Exception e) when (IsBindingFailure(e))
        {
            return MacCloneErrors.ENOTSUP;
        }
    }

    /// <summary>Made of .NET calls, not bindings: nothing to guard.</summary>
    public int RemoveUnshared(string path) => _calls.RemoveUnshared(path);

    /// <summary>True (and the calls switched off) for a failure to bind, not for anything else.</summary>
    private bool IsBindingFailure(Exception e)
    {
        if (e is not (DllNotFoundException or EntryPointNotFoundException))
        {
            return false;
        }

        Volatile.Write(ref _broken, 1);
        return true;
    }
}
