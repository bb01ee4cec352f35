namespace CloneCopy.Engine;

/// <summary>
/// A cloner that remembers files it wrote by their names (Windows: the copy made at the link limit, a seed for later
/// clones; its own clones, whose data is known to be on the volume when they are the next copy's source). A file
/// written under a temporary name and then renamed (CloneCopyAtomicReplace) would be remembered under a name that no
/// longer exists: the platform that renames tells the transfer chain (<see cref="ClonerTransfer.Renamed"/>), which tells
/// the cloner.
/// </summary>
/// <typeparam name="TRenamed">What the platform can show of the renamed file itself, whatever its new name holds by the time
/// it is asked (Windows: the handle that renamed it).</typeparam>
internal interface IRenameFollowingCloner<in TRenamed>
    where TRenamed : class
{
    /// <summary>The file written at <paramref name="from"/> is now at <paramref name="to"/>; <paramref name="renamed"/> shows it, or is null (nothing is known of it).</summary>
    void Renamed(string from, string to, TRenamed? renamed);
}
